import { describe, expect, it } from 'vitest';
import { ui } from '@herald/contract';
import { typeExplanation } from './credit-type-field';

describe('typeExplanation', () => {
  it('explains DP, CTA and Own Number types in one line, plain types not at all', () => {
    expect(typeExplanation('Normal Message - international')).toBeNull();
    expect(typeExplanation('With DP - domestic')).toBe(ui.campaigns.typeExplainDp);
    expect(typeExplanation('With CTA - international')).toBe(ui.campaigns.typeExplainCta);
    expect(typeExplanation('With DP & CTA - domestic')).toBe(
      `${ui.campaigns.typeExplainDp} ${ui.campaigns.typeExplainCta}`,
    );
    expect(typeExplanation('Own Number + DP + CTA')).toBe(ui.campaigns.typeExplainOwnNumber);
  });
});
