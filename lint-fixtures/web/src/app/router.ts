// Good: app/ may import anything.
import { getBeta } from '../api/beta/get-beta';
import { card } from '../components/card';
import { betaList } from '../features/beta/beta-list';
import { label } from '../lib/format';
import { comboPage } from '../screens/combo/combo-page';
import { soloPage } from '../screens/solo/solo-page';

export const routes = [getBeta, betaList, comboPage, soloPage].map((page) => card(label(page())));
