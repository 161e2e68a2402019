// Good: a service uses its own module's repo.
import { findAlpha } from './alpha.repo.js';

export const alphaFor = (id: string): string => findAlpha(id).toUpperCase();
