import { Col, Row } from 'react-bootstrap';
import { citiesOf, STATES, type User } from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';

/** Contact and address fields shared by Add User and Edit User (all strings while editing). */
export interface ContactValues {
  firmName: string;
  mobile: string;
  contactPerson: string;
  contactPersonPhone: string;
  address: string;
  state: string;
  city: string;
  pincode: string;
}

export const CONTACT_KEYS = [
  'firmName',
  'mobile',
  'contactPerson',
  'contactPersonPhone',
  'address',
  'state',
  'city',
  'pincode',
] as const satisfies readonly (keyof ContactValues)[];

export const EMPTY_CONTACT: ContactValues = {
  firmName: '',
  mobile: '',
  contactPerson: '',
  contactPersonPhone: '',
  address: '',
  state: '',
  city: '',
  pincode: '',
};

export function contactValuesOf(user: User): ContactValues {
  const out = { ...EMPTY_CONTACT };
  for (const k of CONTACT_KEYS) out[k] = user[k] ?? '';
  return out;
}

interface UserContactFieldsProps {
  /** Prefix of the control ids, unique per form. */
  idPrefix: string;
  values: ContactValues;
  errors: FieldErrors;
  onChange: (patch: Partial<ContactValues>) => void;
}

/** Firm, phones, address and the state → city lookup (choosing a state resets the city). */
export function UserContactFields({ idPrefix, values, errors, onChange }: UserContactFieldsProps) {
  const id = (k: keyof ContactValues) => `${idPrefix}-${k}`;
  const text = (k: keyof ContactValues, label: string, type = 'text') => (
    <TextField
      controlId={id(k)}
      label={label}
      type={type}
      value={values[k]}
      error={errors[k]}
      onChange={(v) => onChange({ [k]: v })}
    />
  );
  return (
    <>
      <Row>
        <Col md={6}>{text('firmName', 'Firm/Company')}</Col>
        <Col md={6}>{text('mobile', 'Mobile', 'tel')}</Col>
      </Row>
      <Row>
        <Col md={6}>{text('contactPerson', 'Contact Person')}</Col>
        <Col md={6}>{text('contactPersonPhone', 'Contact Person Phone', 'tel')}</Col>
      </Row>
      <TextField
        controlId={id('address')}
        label="Address"
        rows={2}
        value={values.address}
        error={errors.address}
        onChange={(v) => onChange({ address: v })}
      />
      <Row>
        <Col md={4}>
          <SelectField
            controlId={id('state')}
            label="State"
            placeholder="Select State"
            options={STATES}
            value={values.state}
            error={errors.state}
            onChange={(v) => onChange({ state: v, city: '' })}
          />
        </Col>
        <Col md={4}>
          <SelectField
            controlId={id('city')}
            label="City"
            placeholder="Select City"
            options={citiesOf(values.state)}
            value={values.city}
            error={errors.city}
            disabled={!values.state}
            onChange={(v) => onChange({ city: v })}
          />
        </Col>
        <Col md={4}>{text('pincode', 'Pincode')}</Col>
      </Row>
    </>
  );
}

interface NameEmailFieldsProps {
  idPrefix: string;
  values: { name: string; email: string };
  errors: FieldErrors;
  onChange: (patch: { name?: string; email?: string }) => void;
}

/** Name and email, the two required fields of both user dialogs. */
export function NameEmailFields({ idPrefix, values, errors, onChange }: NameEmailFieldsProps) {
  return (
    <Row>
      <Col md={6}>
        <TextField
          controlId={`${idPrefix}-name`}
          label="Name"
          value={values.name}
          error={errors.name}
          onChange={(name) => onChange({ name })}
        />
      </Col>
      <Col md={6}>
        <TextField
          controlId={`${idPrefix}-email`}
          label="Email"
          type="email"
          autoComplete="off"
          value={values.email}
          error={errors.email}
          onChange={(email) => onChange({ email })}
        />
      </Col>
    </Row>
  );
}

interface RoleFieldProps {
  idPrefix: string;
  options: readonly string[];
  value: string;
  error: string | undefined;
  onChange: (role: string) => void;
}

/** The Role select of both user dialogs, offering the roles the editor may give. */
export function RoleField({ idPrefix, options, value, error, onChange }: RoleFieldProps) {
  return (
    <SelectField
      controlId={`${idPrefix}-role`}
      label="Role"
      options={options}
      value={value}
      error={error}
      onChange={onChange}
    />
  );
}
