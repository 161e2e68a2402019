export const label = (text: string): string => text.trim();
