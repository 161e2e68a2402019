/** The eight credit types, one balance each. */
export const CREDIT_TYPES = [
  'Normal Message - domestic',
  'Normal Message - international',
  'With DP - domestic',
  'With DP - international',
  'With CTA - domestic',
  'With CTA - international',
  'With DP & CTA - domestic',
  'Own Number + DP + CTA',
] as const;
export type CreditType = (typeof CREDIT_TYPES)[number];

export const CREDIT_TRANSACTION_TYPES = ['Added', 'Removed'] as const;
export type CreditTransactionType = (typeof CREDIT_TRANSACTION_TYPES)[number];

export function isInternational(type: CreditType): boolean {
  return type.includes('international');
}
export function hasDp(type: CreditType): boolean {
  return type.includes('DP');
}
export function hasCta(type: CreditType): boolean {
  return type.includes('CTA');
}
