/** State and city lookup for the user form: five states, five cities each. */
export const STATE_CITIES = {
  'Andhra Pradesh': ['Visakhapatnam', 'Vijayawada', 'Guntur', 'Nellore', 'Tirupati'],
  Maharashtra: ['Mumbai', 'Pune', 'Nagpur', 'Nashik', 'Aurangabad'],
  Karnataka: ['Bengaluru', 'Mysuru', 'Mangaluru', 'Hubballi', 'Belagavi'],
  'Tamil Nadu': ['Chennai', 'Coimbatore', 'Madurai', 'Tiruchirappalli', 'Salem'],
  'Uttar Pradesh': ['Lucknow', 'Kanpur', 'Varanasi', 'Agra', 'Prayagraj'],
} as const satisfies Record<string, readonly string[]>;

export type State = keyof typeof STATE_CITIES;
export const STATES = Object.keys(STATE_CITIES) as State[];

export function citiesOf(state: string): readonly string[] {
  return (STATE_CITIES as Record<string, readonly string[]>)[state] ?? [];
}
