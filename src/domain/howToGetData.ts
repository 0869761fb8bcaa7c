/**
 * What a command that finds no data says to do: the demo fills the database with simulated data
 * without a key; against the real service, the schema comes first, then a sync or the service.
 */
export const HOW_TO_GET_DATA =
  'to get data, run `npm run demo` (a simulated upstream, no key needed), or `migrate` then `sync` (or `npm start`) against the API';
