import type { Locator, Page } from 'playwright-core';

/**
 * Picks `option` in a search-as-you-type select (components/search-select.tsx) as a person
 * would: opens the box, types `term`, waits for the matching option and clicks it. Answers the
 * box, which then shows the picked option's label.
 */
export async function pickSearchOption(
  scope: Page | Locator,
  label: string,
  term: string,
  option: string,
): Promise<Locator> {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await box.fill(term);
  await box.page().getByRole('option', { name: option, exact: true }).click();
  return box;
}
