import { Col, Row } from 'react-bootstrap';
import type { CreditType, SessionUser, User } from '@herald/contract';
import { formatCount } from '@herald/contract';
import { SearchSelect } from '../../../components/search-select';
import type { FieldErrors } from '../../../components/field-errors';
import { ownerOptions } from './create-form-logic';
import { CreditTypeField } from './credit-type-field';

interface OwnerFieldsProps {
  me: SessionUser;
  /** The users in scope matching `term`; undefined while loading (never asked for a User). */
  users: readonly User[] | undefined;
  /** What is typed in the picker; the owner searches the users with it. */
  term: string;
  onTermChange: (term: string) => void;
  searching: boolean;
  userEmail: string;
  /** The picked owner's label when it was set without a search (a copied campaign's owner). */
  userLabel?: string | undefined;
  creditType: CreditType;
  /** The owner's balance of the type; undefined while loading. */
  available: number | undefined;
  /** The owner's balance per type; undefined while loading. */
  balances: Partial<Record<CreditType, number>> | undefined;
  errors: FieldErrors;
  disabled: boolean;
  onUserEmail: (email: string) => void;
  onCreditType: (type: CreditType) => void;
}

/**
 * 'Campaign For' (the caller marked Self, always first, plus the users in scope,
 * searched as you type; a User has no picker) and the credit type, with the owner's available
 * credits of that type.
 */
export function OwnerFields(props: OwnerFieldsProps) {
  const { me, users, userEmail, creditType, available, errors, disabled } = props;
  const hasPicker = me.role !== 'User';
  const options = ownerOptions(me, users);
  return (
    <>
      <Row>
        {hasPicker && (
          <Col md={6}>
            <SearchSelect
              controlId="campaign-owner"
              label="Campaign For"
              term={props.term}
              onTermChange={props.onTermChange}
              options={options}
              searching={props.searching}
              value={userEmail}
              valueLabel={props.userLabel}
              error={errors.userEmail}
              disabled={disabled}
              onChange={props.onUserEmail}
            />
          </Col>
        )}
        <Col md={6}>
          <CreditTypeField
            value={creditType}
            balances={props.balances}
            error={errors.creditType}
            disabled={disabled}
            onChange={props.onCreditType}
          />
        </Col>
      </Row>
      <p className="small mb-3" aria-live="polite">
        Available credits: <strong>{available === undefined ? '…' : formatCount(available)}</strong>
      </p>
    </>
  );
}
