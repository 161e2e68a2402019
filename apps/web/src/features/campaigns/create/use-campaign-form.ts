import { useRef, useState, type FormEvent } from 'react';
import { ui, type CreditType, type SessionUser } from '@herald/contract';
import { errorMessage } from '../../../lib/api-client';
import type { FieldErrors } from '../../../components/field-errors';
import { useCreateCampaign } from '../../../api/campaigns/create-campaign';
import { useBalances } from '../../../api/credits/get-balances';
import { useUserSearch } from '../../../api/users/get-users';
import { useRecipientParser } from '../recipients/use-recipient-parser';
import {
  availableFor,
  checkCampaignForm,
  EMPTY_FILES,
  EMPTY_VALUES,
  encodeRecipients,
  featuresOf,
  keepsIdempotencyKey,
  submitBlocker,
  withCreditType,
  type CampaignFiles,
  type CampaignFormValues,
} from './create-form-logic';

export interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * The create form's state and submission: inputs, recipients (as keys, parsed in a Worker),
 * the owner's balance, and one Idempotency-Key per submission, kept for a retry whose first
 * outcome is unknown and dropped on any edit.
 */
export function useCampaignForm(me: SessionUser, onCreated: (() => void) | undefined) {
  // What is typed in the Campaign For picker (a User has none).
  const [ownerTerm, setOwnerTerm] = useState('');
  const users = useUserSearch(ownerTerm, me.role !== 'User');
  const create = useCreateCampaign();
  const parser = useRecipientParser();
  const [values, setValues] = useState<CampaignFormValues>(EMPTY_VALUES);
  const [files, setFiles] = useState<CampaignFiles>(EMPTY_FILES);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [progress, setProgress] = useState(0);
  // Remounts the file inputs on reset, so none still shows a file the form dropped.
  const [formKey, setFormKey] = useState(0);
  // The Idempotency-Key of the submission in flight or to retry; an edit makes a new request.
  const keyRef = useRef<string | null>(null);
  const submittingRef = useRef(false);

  const features = featuresOf(values.creditType);
  const ownerEmail = values.userEmail || me.email;
  // The owner's balances alone: the scope's first page of balances need not hold the owner.
  const balances = useBalances({ email: ownerEmail });
  const available = availableFor(balances.data, ownerEmail, values.creditType);
  const blocker = submitBlocker(parser.count, available);
  const sending = preparing || create.isPending;
  // Until the balances arrive the credit rule cannot be checked here: wait for them (a failed
  // load leaves the check to the server, which refuses with the same message).
  const locked = sending || parser.busy || balances.isPending;

  function edited() {
    keyRef.current = null;
    setOutcome(null);
  }
  const setValue = (patch: Partial<CampaignFormValues>) => {
    edited();
    setValues((v) => ({ ...v, ...patch }));
  };
  const setFile = (patch: Partial<CampaignFiles>) => {
    edited();
    setFiles((f) => ({ ...f, ...patch }));
  };
  const setCreditType = (type: CreditType) => {
    edited();
    const next = withCreditType(values, files, type);
    setValues(next.values);
    setFiles(next.files);
  };
  const recipientsEdited = () => {
    edited();
    setErrors((e) => ({ ...e, recipients: undefined }));
  };
  const setRecipientsText = (text: string) => {
    recipientsEdited();
    parser.setText(text);
  };
  const addRecipients = (input: string | File, source: string) => {
    recipientsEdited();
    return parser.add(input, source);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The ref also stops a second click landing before the first one's re-render.
    if (locked || submittingRef.current) return;
    submittingRef.current = true;
    try {
      await send();
    } finally {
      submittingRef.current = false;
    }
  }

  async function send() {
    setOutcome(null);
    // A click within the debounce of the last keystroke still counts every typed number.
    const keys = await parser.settle();
    if (!keys) return;
    const checked = checkCampaignForm(values, keys.length);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    if (submitBlocker(keys.length, available)) return;
    const idempotencyKey = (keyRef.current ??= crypto.randomUUID());
    setPreparing(true);
    setProgress(0);
    const to = await encodeRecipients(keys);
    setPreparing(false);
    create.mutate(
      {
        fields: checked.fields,
        to,
        files,
        idempotencyKey,
        onProgress: setProgress,
      },
      {
        onSuccess: () => {
          keyRef.current = null;
          setValues((v) => ({ ...EMPTY_VALUES, userEmail: v.userEmail, creditType: v.creditType }));
          setFiles(EMPTY_FILES);
          parser.clear();
          setFormKey((k) => k + 1);
          setOutcome({ ok: true, text: ui.campaigns.created });
          onCreated?.();
        },
        onError: (err) => {
          if (!keepsIdempotencyKey(err)) keyRef.current = null;
          setOutcome({ ok: false, text: errorMessage(err, ui.campaigns.createFailed) });
        },
      },
    );
  }

  const clearRecipients = () => {
    edited();
    parser.clear();
  };

  return {
    users,
    ownerTerm,
    setOwnerTerm,
    loadFailed: users.error ?? balances.error,
    parser,
    values,
    files,
    errors,
    outcome,
    preparing,
    progress,
    formKey,
    features,
    available,
    blocker,
    sending,
    locked,
    setValue,
    setFile,
    setCreditType,
    setRecipientsText,
    addRecipients,
    clearRecipients,
    submit,
  };
}
