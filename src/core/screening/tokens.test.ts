// docs/rules/screening.md#normalisation, #transliteration, #words-that-do-not-count, #tokens
import { describe, expect, it } from 'vitest';
import { normaliseName } from './normalise.js';
import { prepareName } from './tokens.js';

describe('normalisation', () => {
  it('lowers case, drops accents and joins apostrophes', () => {
    expect(normaliseName("JOSÉ  Luis O'Brien-Núñez")).toBe('jose luis obrien nunez');
    expect(normaliseName('Łukasz Ørsted Straße')).toBe('lukasz orsted strasse');
  });
  it('turns the lists\' "LAST, First" order around', () => {
    expect(normaliseName('PRIGOZHIN, Yevgeniy Viktorovich')).toBe('yevgeniy viktorovich prigozhin');
  });
});

describe('transliteration', () => {
  it('writes Cyrillic, Greek and Arabic in Latin letters', () => {
    expect(normaliseName('Евгений Пригожин')).toBe('evgeniy prigozhin');
    expect(normaliseName('Γιώργος Παπαδόπουλος')).toBe('giorgos papadopoulos');
    expect(normaliseName('محمد القذافي')).toBe('mhmd al qdhafi');
  });
});

describe('words that do not count', () => {
  it('sets company words aside and marks the name an organisation', () => {
    expect(prepareName('EMMA LLC')).toMatchObject({ tokens: ['emma'], ignored: ['llc'], organisation: true });
    expect(prepareName('Zenith Shipping S.A.')).toMatchObject({ tokens: ['zenith', 'shipping'], organisation: true });
  });
  it('sets honorifics and particles aside', () => {
    expect(prepareName('Sheikh Dr. Khalid bin Saeed al-Harbi')).toMatchObject({ tokens: ['khalid', 'saeed', 'harbi'], ignored: ['sheikh', 'dr', 'bin', 'al'], organisation: false });
    expect(prepareName('Charles de Gaulle').tokens).toEqual(['charles', 'gaulle']);
  });
  it('keeps particles when nothing else is left', () => {
    expect(prepareName('De La').tokens).toEqual(['de', 'la']);
  });
});

describe('tokens', () => {
  it('writes every spelling of Abd al-… as "abd" and the rest', () => {
    for (const name of ['Abd al-Rahman', 'Abdul Rahman', 'Abdulrahman', 'Abderrahmane', 'Abdel Rahman']) {
      expect(prepareName(name).tokens.slice(0, 2), name).toEqual(['abd', name === 'Abderrahmane' ? 'rahmane' : 'rahman']);
    }
    expect(prepareName('Abdullah').tokens).toEqual(prepareName('Abdalla').tokens);
  });
});

describe('bounds', () => {
  it('reads at most 500 characters of a name and 40 letters of a word', () => {
    const giant = 'a'.repeat(16_500);
    expect(prepareName(`${giant} Korolenko`).tokens).toEqual(['a'.repeat(40)]);
    expect(prepareName(`Korolenko ${giant}`).tokens).toEqual(['korolenko', 'a'.repeat(40)]);
    const many = Array.from({ length: 200 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}`).join(' ');
    expect(prepareName(many).tokens.join(' ').length).toBeLessThanOrEqual(500);
  });
});
