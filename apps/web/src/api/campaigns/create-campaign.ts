import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateCampaignReply } from '@herald/contract';
import { postBody } from '../../lib/upload';
import { creditsRootKey } from '../credits/get-credits';
import { profilesRootKey } from '../profile/get-profile';
import { campaignsRootKey } from './get-campaigns';

/** The media files by their multipart field names; `images` is repeated. */
export interface CampaignUploadFiles {
  dp?: File | null;
  singleCreative?: File | null;
  images?: readonly File[];
  video?: File | null;
  pdf?: File | null;
  audio?: File | null;
}

export interface CreateCampaignArgs {
  /** Text fields already checked and trimmed; empty ones left out. */
  fields: Readonly<Record<string, string>>;
  /** The recipients comma-joined, as ASCII bytes (encodeRecipients). */
  to: Uint8Array<ArrayBuffer>;
  files: CampaignUploadFiles;
  /** One per submission: a retry with the same key creates nothing twice. */
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
}

/**
 * The multipart body of POST /api/campaigns. `to` can hold a million numbers (16 MB): it goes
 * as bytes in a Blob part, never as one string on the page, and as a file part the server
 * scans the numbers as they stream in (the API names the field `to`; the file name only marks
 * it as streamed). Text fields come first, so the server has them before the files.
 */
export function campaignFormData(args: Pick<CreateCampaignArgs, 'fields' | 'to' | 'files'>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(args.fields)) form.append(name, value);
  form.append('to', new Blob([args.to], { type: 'text/plain' }), 'to.txt');
  const { images = [], ...single } = args.files;
  for (const [name, file] of Object.entries(single)) if (file) form.append(name, file, file.name);
  for (const file of images) form.append('images', file, file.name);
  return form;
}

/**
 * POST /api/campaigns: creates the campaign and debits the owner's credits. Sent through
 * XMLHttpRequest, which reports upload progress (fetch cannot); the browser writes the
 * multipart boundary and content type.
 */
export function createCampaign(args: CreateCampaignArgs): Promise<CreateCampaignReply> {
  return postBody<CreateCampaignReply>('/campaigns', campaignFormData(args), {
    headers: { 'Idempotency-Key': args.idempotencyKey },
    onProgress: args.onProgress,
  });
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: campaignsRootKey }),
        // Balances, transactions and history: the owner was debited.
        queryClient.invalidateQueries({ queryKey: creditsRootKey }),
        queryClient.invalidateQueries({ queryKey: profilesRootKey }),
      ]),
  });
}
