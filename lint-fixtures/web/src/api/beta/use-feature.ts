// Bad: api/ imports a feature.
import { betaList } from '../../features/beta/beta-list';

export const fromFeature = (): string => betaList();
