// Good: a module's test fixtures, which other modules' tests may use.
export const alphaRow = (id: string): { id: string } => ({ id });
