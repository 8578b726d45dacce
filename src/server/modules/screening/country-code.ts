// A profile's country as its sender typed it ("France", "Gabon", "FR") read as an ISO 3166-1
// alpha-2 code, for the matcher's country qualifier; unknown text gives none (no qualifier).

let byName: Map<string, string> | null = null;

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z]/g, '');

function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map();
  const displays = ['en', 'fr'].map((lang) => new Intl.DisplayNames([lang], { type: 'region' }));
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      for (const display of displays) {
        const name = display.of(code);
        if (name && name !== code) byName.set(fold(name), code);
      }
    }
  }
  return byName;
}

export function countryCode(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return trimmed.toUpperCase();
  return names().get(fold(trimmed));
}
