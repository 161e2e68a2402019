export const findAlpha = (id: string): string => `alpha ${id}`;
