// Bad: lib/ imports a screen.
import { comboPage } from '../screens/combo/combo-page';

export const screenTitle = (): string => comboPage();
