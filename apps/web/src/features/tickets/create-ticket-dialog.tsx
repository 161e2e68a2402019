import { useMemo, useState, type FormEvent } from 'react';
import { Button, Form, Modal, Spinner } from 'react-bootstrap';
import {
  TICKET_ISSUE_TYPES,
  USERS_PAGE_MAX,
  ui,
  type SessionUser,
  type TicketIssueType,
} from '@herald/contract';
import { SelectField, TextField, type SelectOption } from '../../components/form-field';
import { EMPTY_CAMPAIGN_FILTERS, useCampaigns } from '../../api/campaigns/get-campaigns';
import { useCredits } from '../../api/credits/get-credits';
import { useCreateTicket } from '../../api/tickets/create-ticket';
import { useUsers } from '../../api/users/get-users';
import { FailureAlert } from './failure-alert';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import {
  EMPTY_TICKET,
  RELATED_FIELD,
  attachmentsProblem,
  campaignOptions,
  ticketFields,
  ticketFormErrors,
  transactionOptions,
  userOptions,
  type CreateTicketValues,
} from './tickets-data';

const RELATED_LABEL = {
  relatedCampaign: 'Related Campaign',
  relatedUser: 'Related User',
  relatedTransaction: 'Related Transaction',
} as const;

/** The related record's choices for the chosen issue type, from the lists the caller sees. */
function useRelatedOptions(me: SessionUser, issueType: TicketIssueType): SelectOption[] | null {
  const field = RELATED_FIELD[issueType];
  const campaigns = useCampaigns(EMPTY_CAMPAIGN_FILTERS, field === 'relatedCampaign');
  const users = useUsers({ limit: USERS_PAGE_MAX }, field === 'relatedUser' && me.role !== 'User');
  const credits = useCredits();
  return useMemo(() => {
    if (field === 'relatedCampaign') {
      return campaignOptions(campaigns.data?.pages.flatMap((p) => p.campaigns) ?? []);
    }
    if (field === 'relatedUser') {
      const self: SelectOption = { value: me.id, label: `${me.name} (${me.email})` };
      return [self, ...userOptions(users.data?.pages.flatMap((p) => p.users) ?? [])];
    }
    if (field === 'relatedTransaction') {
      return transactionOptions(credits.data?.pages.flatMap((p) => p.transactions) ?? []);
    }
    return null;
  }, [field, campaigns.data, users.data, credits.data, me]);
}

/** The create-ticket modal: subject and description required, files optional. */
export function CreateTicketDialog({ me, onClose }: { me: SessionUser; onClose: () => void }) {
  const [values, setValues] = useState<CreateTicketValues>(EMPTY_TICKET);
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const create = useCreateTicket();
  const focusFirstInvalid = useFocusFirstInvalid();
  const related = useRelatedOptions(me, values.issueType);
  const errors = touched ? ticketFormErrors(values) : {};
  const relatedField = RELATED_FIELD[values.issueType];
  const set = (patch: Partial<CreateTicketValues>) => setValues((v) => ({ ...v, ...patch }));

  const onFiles = async (list: FileList | null) => {
    const chosen = Array.from(list ?? []);
    setFiles(chosen);
    setFilesError(await attachmentsProblem(chosen));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (Object.keys(ticketFormErrors(values)).length > 0 || filesError) {
      focusFirstInvalid(e.currentTarget);
      return;
    }
    create.mutate({ fields: ticketFields(values), attachments: files }, { onSuccess: onClose });
  };

  const busy = create.isPending;
  return (
    <Modal show onHide={busy ? undefined : onClose} centered aria-labelledby="create-ticket-title">
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton={!busy}>
          <Modal.Title id="create-ticket-title" as="h2" className="h5">
            Create Ticket
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {create.isError && (
            <FailureAlert error={create.error} message={ui.tickets.createFailed} />
          )}
          <TextField
            controlId="ticket-subject"
            label="Subject"
            value={values.subject}
            onChange={(subject) => set({ subject })}
            error={errors.subject}
          />
          <TextField
            controlId="ticket-description"
            label="Description"
            rows={4}
            value={values.description}
            onChange={(description) => set({ description })}
            error={errors.description}
          />
          <SelectField
            controlId="ticket-issue-type"
            label="Issue Type"
            value={values.issueType}
            options={TICKET_ISSUE_TYPES}
            onChange={(v) => set({ issueType: v as TicketIssueType, related: '' })}
          />
          {relatedField && related && (
            <SelectField
              controlId="ticket-related"
              label={RELATED_LABEL[relatedField]}
              value={values.related}
              options={related}
              placeholder="None"
              onChange={(v) => set({ related: v })}
            />
          )}
          <Form.Group controlId="ticket-attachments">
            <Form.Label>Attachments</Form.Label>
            <Form.Control
              type="file"
              multiple
              accept="image/*,.pdf,.csv,.xlsx,.txt"
              isInvalid={!!filesError}
              aria-invalid={filesError ? true : undefined}
              aria-describedby={
                filesError
                  ? 'ticket-attachments-hint ticket-attachments-error'
                  : 'ticket-attachments-hint'
              }
              onChange={(e) => void onFiles((e.target as HTMLInputElement).files)}
            />
            <Form.Text id="ticket-attachments-hint" muted>
              Up to 5 files of up to 5 MB: images, PDF, CSV, XLSX or text.
            </Form.Text>
            <Form.Control.Feedback id="ticket-attachments-error" type="invalid">
              {filesError}
            </Form.Control.Feedback>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Submit
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
