// Good: a service inside a module's sub-folder, used by its own module.
export const innerAlpha = (id: string): string => `inner ${id}`;
