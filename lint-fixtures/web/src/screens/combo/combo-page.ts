// Good: a screen composes features and uses api/.
import { getBeta } from '../../api/beta/get-beta';
import { alphaPage } from '../../features/alpha/alpha-page';
import { betaList } from '../../features/beta/beta-list';

export const comboPage = (): string => [alphaPage(), betaList(), getBeta()].join(' ');
