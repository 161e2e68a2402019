// Bad: components/ imports a feature.
import { betaList } from '../features/beta/beta-list';

export const featureCard = (): string => betaList();
