import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ui, type CampaignFileField, type CreditType, type SessionUser } from '@herald/contract';
import { errorMessage } from '../../../lib/api-client';
import { useFocusFirstInvalid } from '../../../components/use-focus-first-invalid';
import type { FieldErrors } from '../../../components/field-errors';
import { useCreateCampaign } from '../../../api/campaigns/create-campaign';
import { useBalances } from '../../../api/credits/get-balances';
import { useUserSearch } from '../../../api/users/get-users';
import { useRecipientParser } from '../recipients/use-recipient-parser';
import {
  availableFor,
  checkCampaignForm,
  costOf,
  EMPTY_FILES,
  EMPTY_VALUES,
  encodeRecipients,
  featuresOf,
  fileBlocker,
  keepsIdempotencyKey,
  mediaFieldsOf,
  submitBlocker,
  withCreditType,
  type CampaignFiles,
  type CampaignFormValues,
  type CampaignTextFields,
} from './create-form-logic';
import { useFormDraft, useSaveDraft } from './use-form-draft';
import { copiedParts, formHoldsSomething, type CopiedFrom } from './campaign-copy';
import type { LoadedCopy } from './use-campaign-copy';
import { NO_TEMPLATE, sentAs } from './template-choice';
import { useTemplateChoice } from './use-template-choice';

type Rejected = Partial<Record<CampaignFileField, string>>;

/** A checked submission waiting for the user's Confirm in the preview. */
interface Pending {
  fields: CampaignTextFields;
  keys: Float64Array;
}

export interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * The create form's state and submission: inputs, recipients (as keys, parsed in a Worker),
 * the owner's balance, and one Idempotency-Key per submission, kept for a retry whose first
 * outcome is unknown and dropped on any edit. 'Create Campaign' checks the form and opens the
 * preview; only its Confirm sends. The text inputs, the template's values and the Numbers box
 * are kept as a draft.
 */
export function useCampaignForm(me: SessionUser, onCreated: (() => void) | undefined) {
  // What is typed in the Campaign For picker (a User has none).
  const [ownerTerm, setOwnerTerm] = useState('');
  const users = useUserSearch(ownerTerm, me.role !== 'User');
  const create = useCreateCampaign();
  const parser = useRecipientParser();
  const draft = useFormDraft(me.id);
  const [values, setValues] = useState<CampaignFormValues>(
    () => draft.restored?.values ?? EMPTY_VALUES,
  );
  const [files, setFiles] = useState<CampaignFiles>(EMPTY_FILES);
  const [rejected, setRejected] = useState<Rejected>({});
  const [pending, setPending] = useState<Pending | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const templates = useTemplateChoice(values.creditType, draft.restored?.template, {
    edited,
    setErrors,
  });
  const focusFirstInvalid = useFocusFirstInvalid();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [progress, setProgress] = useState(0);
  // Remounts the file inputs on reset, so none still shows a file the form dropped.
  const [formKey, setFormKey] = useState(0);
  // What a row's Clone or Resend filled the form from, until created or filled again.
  const [copiedFrom, setCopiedFrom] = useState<CopiedFrom | null>(null);
  // The Idempotency-Key of the submission in flight or to retry; an edit makes a new request.
  const keyRef = useRef<string | null>(null);
  const submittingRef = useRef(false);

  // The draft's numbers go back into the box once; then every change is kept.
  const restoredNumbers = draft.restored?.numbers;
  const setParserText = parser.setText;
  useEffect(() => {
    if (restoredNumbers) setParserText(restoredNumbers);
  }, [restoredNumbers, setParserText]);
  useSaveDraft(draft.save, { values, numbers: parser.text, template: templates.choice });

  const features = featuresOf(values.creditType);
  const ownerEmail = values.userEmail || me.email;
  // The owner's balances alone: the scope's first page of balances need not hold the owner.
  const balances = useBalances({ email: ownerEmail });
  const available = availableFor(balances.data, ownerEmail, values.creditType);
  const cost = costOf(parser.count, available);
  // Sent as a template only the DP goes (sentAs): a refused file of a hidden picker is not sent.
  const refused = templates.template ? { dp: rejected.dp } : rejected;
  const blocker = submitBlocker(parser.count, available) ?? fileBlocker(refused, parser.inputs);
  const sending = preparing || create.isPending;
  // Until the balances arrive the credit rule cannot be checked here: wait for them (a failed
  // load leaves the check to the server, which refuses with the same message).
  const locked = sending || parser.busy || balances.isPending || templates.waiting;

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
  const setRejectedFile = (field: CampaignFileField, error: string | null) => {
    setRejected((r) => ({ ...r, [field]: error ?? undefined }));
  };
  const setCreditType = (type: CreditType) => {
    edited();
    const next = withCreditType(values, files, type);
    setValues(next.values);
    setFiles(next.files);
    // A refused file in a picker the new type does not show no longer blocks.
    const kept = mediaFieldsOf(featuresOf(type));
    setRejected((r) => Object.fromEntries(kept.map((k) => [k, r[k]])) as Rejected);
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
    const form = e.currentTarget;
    // The ref also stops a second click landing before the first one's re-render.
    if (locked || submittingRef.current) return;
    submittingRef.current = true;
    try {
      if ((await review()) === 'refused') focusFirstInvalid(form);
    } finally {
      submittingRef.current = false;
    }
  }

  /** Checks the form; when it may be sent, opens the preview to confirm. */
  async function review(): Promise<'refused' | undefined> {
    setOutcome(null);
    // A click within the debounce of the last keystroke still counts every typed number.
    const keys = await parser.settle();
    if (!keys) return;
    const checked = checkCampaignForm(values, keys.length, templates.chosen);
    if (!checked.ok) {
      setErrors(checked.errors);
      return 'refused';
    }
    setErrors({});
    if (submitBlocker(keys.length, available) ?? fileBlocker(refused, parser.inputs)) return;
    setPending({ fields: checked.fields, keys });
  }

  /** The preview's Back: the form stays exactly as it was. */
  const back = () => setPending(null);

  /** The preview's Confirm: sends what was checked (the form cannot change behind the dialog). */
  async function confirm() {
    const checked = pending;
    if (!checked || submittingRef.current) return;
    setPending(null);
    submittingRef.current = true;
    try {
      await send(checked);
    } finally {
      submittingRef.current = false;
    }
  }

  async function send({ fields, keys }: Pending) {
    const idempotencyKey = (keyRef.current ??= crypto.randomUUID());
    setPreparing(true);
    setProgress(0);
    const to = await encodeRecipients(keys);
    setPreparing(false);
    create.mutate(
      {
        fields,
        to,
        files: sentAs(values, files, templates.chosen).files,
        idempotencyKey,
        onProgress: setProgress,
      },
      {
        onSuccess: () => {
          keyRef.current = null;
          setValues((v) => ({ ...EMPTY_VALUES, userEmail: v.userEmail, creditType: v.creditType }));
          setFiles(EMPTY_FILES);
          templates.setChoice(NO_TEMPLATE);
          setRejected({});
          parser.clear();
          draft.clear();
          setFormKey((k) => k + 1);
          setCopiedFrom(null);
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
  const removeRecipients = (id: number) => {
    recipientsEdited();
    parser.remove(id);
  };

  /**
   * Replaces everything the form holds with a copy of a campaign (docs/product.md, Campaigns,
   * "Clone and resend"): its files go where picked files go, its numbers file into the list.
   */
  async function fill(copy: LoadedCopy) {
    edited();
    setPending(null);
    setErrors({});
    setValues(copy.values);
    templates.setChoice(copy.template);
    setFiles(copy.files);
    setRejected(copy.rejected);
    setFormKey((k) => k + 1);
    // The restored draft is gone; the copy's own text becomes the draft from here.
    draft.clear();
    parser.clear();
    const figures = await parser.add(copy.numbers, copy.numbers.name);
    const { source, kind } = copy;
    const numbers = { kind, count: figures?.kept ?? 0 };
    setCopiedFrom({
      name: source.name,
      parts: copiedParts(copy.values, copy.mediaCount, numbers, copy.templateName),
      owner: copy.values.userEmail
        ? { email: source.userEmail, label: `${source.userName} (${source.userEmail})` }
        : null,
    });
  }
  const holdsSomething = formHoldsSomething({
    values,
    template: templates.choice,
    numbersText: parser.text,
    recipients: parser.count,
    inputs: parser.inputs.length,
    files,
  });

  return {
    fill,
    holdsSomething,
    copiedFrom,
    users,
    ownerTerm,
    setOwnerTerm,
    loadFailed: users.error ?? balances.error,
    ownerBalances: balances.data?.[ownerEmail],
    draftRestored: draft.showNote,
    rejected,
    setRejectedFile,
    pending,
    back,
    confirm,
    cost,
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
    templates,
    setCreditType,
    setRecipientsText,
    addRecipients,
    clearRecipients,
    removeRecipients,
    submit,
  };
}
