import { useState, type Dispatch, type SetStateAction } from 'react';
import type { CreditType } from '@herald/contract';
import { useCampaignTemplates } from '../../../api/delivery/get-templates';
import type { FieldErrors } from '../../../components/field-errors';
import {
  chooseTemplate,
  chosenTemplate,
  NO_TEMPLATE,
  templateProblem,
  type TemplateChoice,
} from './template-choice';

/**
 * The form's template: the templates offered for the credit type (those of the sender it goes
 * through), the choice and its values. `refusal` is the values' message after a refused
 * submit, checked again at each keystroke so it goes as soon as the values are right.
 */
export function useTemplateChoice(
  creditType: CreditType,
  restored: TemplateChoice | undefined,
  form: { edited: () => void; setErrors: Dispatch<SetStateAction<FieldErrors>> },
) {
  const offered = useCampaignTemplates(creditType);
  const [choice, setChoice] = useState<TemplateChoice>(restored ?? NO_TEMPLATE);
  const template = chosenTemplate(choice, offered.data);
  return {
    choice,
    setChoice,
    offered: offered.data ?? [],
    /** The chosen template, once the list holds it; null for none. */
    template,
    /** The template with its values, as checkCampaignForm takes it; null for none. */
    chosen: template && { template, choice },
    /** A chosen template cannot be checked (nor sent) before the list is there. */
    waiting: offered.isPending && choice.templateId !== '',
    loadError: offered.error,
    choose: (id: string) => {
      form.edited();
      form.setErrors((e) => ({ ...e, templateValues: undefined }));
      setChoice((c) => chooseTemplate(c, offered.data?.find((x) => x.id === id) ?? null));
    },
    /** Sets `{{i + 1}}`'s value. */
    setValue: (i: number, value: string) => {
      form.edited();
      const next = { ...choice, values: choice.values.map((v, j) => (j === i ? value : v)) };
      setChoice(next);
      const problem = template ? templateProblem(next, template) : null;
      form.setErrors((e) =>
        e.templateValues ? { ...e, templateValues: problem ?? undefined } : e,
      );
    },
  };
}
