import { useCallback, useEffect, useState } from 'react';
import { clearDraft, isEmptyDraft, loadDraft, saveDraft, type CampaignDraft } from './form-draft';

const storage = (): Storage | null =>
  typeof sessionStorage === 'undefined' ? null : sessionStorage;

/**
 * The form's draft for this user in this tab: read once when the form opens, written on every
 * change of the text inputs, the template's values or the Numbers box (useSaveDraft), dropped
 * after a campaign is created.
 */
export function useFormDraft(userId: string) {
  const [restored] = useState<CampaignDraft | null>(() => {
    const s = storage();
    const draft = s ? loadDraft(s, userId) : null;
    return draft && !isEmptyDraft(draft) ? draft : null;
  });
  const [showNote, setShowNote] = useState(restored !== null);
  const save = useCallback(
    (draft: CampaignDraft) => {
      const s = storage();
      if (s) saveDraft(s, userId, draft);
    },
    [userId],
  );
  const clear = useCallback(() => {
    const s = storage();
    if (s) clearDraft(s, userId);
    setShowNote(false);
  }, [userId]);
  return { restored, showNote, save, clear };
}

/** Writes the draft whenever it changes. */
export function useSaveDraft(save: (draft: CampaignDraft) => void, draft: CampaignDraft): void {
  const { values, numbers, template } = draft;
  useEffect(() => save({ values, numbers, template }), [save, values, numbers, template]);
}
