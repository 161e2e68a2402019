// Good: a screen of its own.
import { card } from '../../components/card';

export const soloPage = (): string => card('solo');
