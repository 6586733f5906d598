/**
 * How the time-zone picker matches what a customer types against an option ("Berlin, Germany",
 * value "Europe/Berlin"). Shared by the server's tests and the page's island, so it imports
 * nothing and stays a few lines: case, accents and the zone id's separators do not matter, and
 * every typed word must occur ("new york", "sao paulo", "japan", "europe/lis").
 */
export function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_/,()-]+/g, ' ')
    .trim();
}

export function matchesZone(query: string, option: string): boolean {
  const words = searchable(query).split(' ').filter(Boolean);
  const text = searchable(option);
  return words.every((word) => text.includes(word));
}
