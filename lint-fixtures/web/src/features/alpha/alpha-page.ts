// Bad: a feature imports another feature.
import { betaList } from '../beta/beta-list';

export const alphaPage = (): string => betaList();
