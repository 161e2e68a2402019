// Good: a feature imports its own files, api/, components/ and lib/.
import { getBeta } from '../../api/beta/get-beta';
import { card } from '../../components/card';
import { betaRow } from './beta-row';

export const betaList = (): string => card(`${getBeta()} ${betaRow()}`);
