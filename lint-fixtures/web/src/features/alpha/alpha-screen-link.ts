// Bad: a feature imports a screen.
import { soloPage } from '../../screens/solo/solo-page';

export const alphaScreenLink = (): string => soloPage();
