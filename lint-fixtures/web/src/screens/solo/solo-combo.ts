// Bad: a screen imports another screen.
import { comboPage } from '../combo/combo-page';

export const soloCombo = (): string => comboPage();
