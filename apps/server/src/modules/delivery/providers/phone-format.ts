import { isInternational, type CreditType } from '@herald/contract';

/**
 * The number a provider that wants international format (WhatsApp, Twilio) is given. Intake
 * never adds or removes a country code (docs/product.md, How numbers are read), and a domestic
 * campaign's numbers are usually written without one: with the sender's `domesticCountryCode`
 * set, a domestic number of at most 10 digits (after its trunk zeros) gets that code in front.
 * International types carry their code already; without the setting nothing changes.
 */
export function internationalDigits(
  to: string,
  creditType: CreditType,
  domesticCountryCode: string | undefined,
): string {
  if (!domesticCountryCode || isInternational(creditType)) return to;
  const national = to.replace(/^0+/, '');
  return national.length <= 10 ? `${domesticCountryCode}${national}` : to;
}
