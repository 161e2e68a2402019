export const betaRow = (): string => 'row';
