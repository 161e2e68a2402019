// Good: a module's internal helper, used inside its own module.
export const formatAlpha = (id: string): string => `<${id}>`;
