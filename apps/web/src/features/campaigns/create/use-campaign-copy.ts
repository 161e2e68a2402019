import { useEffect, useEffectEvent, useState } from 'react';
import {
  campaignCopyUi as text,
  copyNumbersFileName,
  type Campaign,
  type CampaignCopyKind,
  type CampaignFileField,
} from '@herald/contract';
import { errorMessage } from '../../../lib/api-client';
import { getCampaign } from '../../../api/campaigns/get-campaign';
import { getCampaignFile } from '../../../api/campaigns/get-campaign-file';
import { getCampaignNumbers } from '../../../api/campaigns/get-campaign-numbers';
import { getCampaignTemplates } from '../../../api/delivery/get-templates';
import {
  copiedValues,
  csvHasNumbers,
  withoutHeader,
  fieldOfKind,
  filesIntoFields,
  type CopyRequest,
} from './campaign-copy';
import {
  featuresOf,
  mediaFieldsOf,
  type CampaignFiles,
  type CampaignFormValues,
} from './create-form-logic';
import { checkMediaFile } from './file-rules';
import { copiedChoice, type TemplateChoice } from './template-choice';

/** A campaign fetched and turned into the form's inputs, ready to fill it. */
export interface LoadedCopy {
  source: Campaign;
  kind: CampaignCopyKind;
  values: CampaignFormValues;
  /** The media the form took; a file its rules now refuse is left out and named in `rejected`. */
  files: CampaignFiles;
  rejected: Partial<Record<CampaignFileField, string>>;
  mediaCount: number;
  /** The campaign's template when its credit type's sender still offers it; else none. */
  template: TemplateChoice;
  /** That template's name, for the note; null when none was chosen again. */
  templateName: string | null;
  /** The numbers as one recipients file, parsed in the Worker like a picked file. */
  numbers: File;
}

/**
 * Fetches what the copy needs: the numbers first (a Resend whose group is empty stops there,
 * before anything else is fetched), then the campaign's details and each media file, turned
 * into `File`s with their original names and types and checked as a picked file is, and for a
 * campaign sent as a template the templates its credit type offers now, to choose it again.
 */
export async function loadCopy(
  request: CopyRequest,
  myEmail: string,
  signal: AbortSignal,
): Promise<LoadedCopy | null> {
  const { campaign, kind } = request;
  const numbers = await getCampaignNumbers(campaign._id, kind, signal);
  if (!(await csvHasNumbers(numbers))) return null;
  const detail = await getCampaign(campaign._id, signal);
  const values = copiedValues(detail, kind, myEmail);
  const taken = mediaFieldsOf(featuresOf(values.creditType));
  const media = detail.files.filter((f) => taken.includes(fieldOfKind(f.kind)));
  const fetched = await Promise.all(
    media.map(async (f) => {
      const { blob } = await getCampaignFile(campaign._id, f, signal);
      return { field: fieldOfKind(f.kind), file: new File([blob], f.name, { type: f.mime }) };
    }),
  );
  const files = filesIntoFields(fetched);
  const offered = detail.template ? await getCampaignTemplates(values.creditType, signal) : [];
  const template = copiedChoice(detail.template, offered);
  const rejected: LoadedCopy['rejected'] = {};
  for (const { field, file } of fetched) {
    const problem = rejected[field] ? null : await checkMediaFile(field, file);
    if (!problem) continue;
    rejected[field] = problem;
    if (field === 'images') files.images = [];
    else files[field] = null;
  }
  return {
    source: detail,
    kind,
    values,
    files,
    rejected,
    mediaCount: fetched.length,
    template,
    templateName: template.templateId ? (detail.template?.name ?? null) : null,
    numbers: new File([await withoutHeader(numbers)], copyNumbersFileName(detail.name, kind), {
      type: 'text/csv',
    }),
  };
}

export interface CopyProblem {
  variant: 'warning' | 'danger';
  text: string;
}

interface CopyOptions {
  request: CopyRequest | null;
  myEmail: string;
  /** Whether filling would replace something; then the user is asked first. */
  holdsSomething: boolean;
  fill: (copy: LoadedCopy) => Promise<void>;
  /** A request arrived: bring the form into view. */
  onShow: () => void;
  /** The form is filled: put the focus in it. */
  onFilled: () => void;
}

/**
 * A row's Clone or Resend on the form: asks before replacing what the form holds, fetches the
 * campaign (a newer request or leaving the page aborts it), fills the form, and says why when
 * it cannot ("No recipients to resend to.", or the server's refusal).
 */
export function useCampaignCopy(opts: CopyOptions) {
  const { request } = opts;
  const [seen, setSeen] = useState<number | null>(null);
  const [job, setJob] = useState<{ request: CopyRequest; asking: boolean } | null>(null);
  const [problem, setProblem] = useState<CopyProblem | null>(null);
  // Each new request is taken once, when it arrives (as the page's linked status filter is).
  if (request && request.seq !== seen) {
    setSeen(request.seq);
    setProblem(null);
    setJob({ request, asking: opts.holdsSomething });
  }

  const show = useEffectEvent(() => opts.onShow());
  const run = useEffectEvent(async (req: CopyRequest, signal: AbortSignal) => {
    try {
      const copy = await loadCopy(req, opts.myEmail, signal);
      if (signal.aborted) return;
      if (copy) {
        await opts.fill(copy);
        opts.onFilled();
      } else setProblem({ variant: 'warning', text: text.noRecipients });
    } catch (err) {
      if (!signal.aborted) setProblem({ variant: 'danger', text: errorMessage(err, text.failed) });
    }
    if (!signal.aborted) setJob(null);
  });

  const shown = job?.request;
  useEffect(() => {
    if (shown) show();
  }, [shown]);

  useEffect(() => {
    if (!job || job.asking) return;
    const controller = new AbortController();
    void run(job.request, controller.signal);
    return () => controller.abort();
  }, [job]);

  return {
    /** The campaign whose copy waits for the user's yes, if one does. */
    asking: job?.asking ? job.request.campaign : null,
    /** The campaign being fetched, if one is. */
    copying: job && !job.asking ? job.request.campaign : null,
    problem,
    dismissProblem: () => setProblem(null),
    confirm: () => setJob((j) => j && { ...j, asking: false }),
    cancel: () => setJob(null),
  };
}
