import { describe, expect, it } from 'vitest';
import { CHANNELS, CHANNEL_IDS } from './channels';
import { acceptedOperators, DEFAULT_OPERATOR_PREFIXES, MOBILE_CHANNEL_IDS, readMobileNumber, type OperatorPrefix } from './operators';

const table = DEFAULT_OPERATOR_PREFIXES;
const gabon = (text: string, t: readonly OperatorPrefix[] = table) => readMobileNumber(t, 'airtel_gabon', text);
const rwanda = (text: string) => readMobileNumber(table, 'mobile_rwanda', text);

describe('readMobileNumber', () => {
  it('reads an Airtel Gabon number however it is typed', () => {
    const valid = { status: 'valid', e164: '+24177123456', operator: 'Airtel Gabon' };
    for (const text of ['+241 77 12 34 56', '+24177123456', '077123456', '077 12 34 56', '241771234 56', '24177123456',
      '00241 77 12 34 56', '77 12 34 56', '+241-77-12-34-56', '(+241) 77.12.34.56', '\u00a0+241\u00a077123456 ']) {
      expect(gabon(text), text).toEqual(valid);
    }
    expect(gabon('074 00 00 01')).toEqual({ status: 'valid', e164: '+24174000001', operator: 'Airtel Gabon' });
  });

  it('reads the Rwandan numbers of both operators and names which', () => {
    for (const prefix of ['78', '79']) {
      expect(rwanda(`+250 ${prefix}8 123 456`)).toEqual({ status: 'valid', e164: `+250${prefix}8123456`, operator: 'MTN Rwanda' });
    }
    for (const prefix of ['72', '73']) {
      expect(rwanda(`0${prefix}8 123 456`)).toEqual({ status: 'valid', e164: `+250${prefix}8123456`, operator: 'Airtel Rwanda' });
    }
    expect(rwanda('250 788 123 456')).toMatchObject({ status: 'valid', e164: '+250788123456' });
    expect(rwanda('788123456')).toMatchObject({ status: 'valid', e164: '+250788123456' });
  });

  it('refuses another operator, the old 8-digit Gabon numbers, another country and wrong lengths', () => {
    for (const text of ['+241 76 12 34 56', '+241 06 12 34 56', '06 12 34 56', '07 12 34 56', '+241 62 12 34 56',
      '+250 788 123 456', '+241 77 12 34 567', '0771234567', '+33 6 12 34 56 78', '077 12 34 5x', 'abc']) {
      expect(gabon(text), text).toEqual({ status: 'refused' });
    }
    for (const text of ['+250 71 123 4567', '+250 75 123 4567', '+241 77 12 34 56', '+250 788 123 4567']) {
      expect(rwanda(text), text).toEqual({ status: 'refused' });
    }
  });

  it('names the operator while the number is typed, and refuses as soon as no range can match', () => {
    expect(gabon('')).toEqual({ status: 'partial', operator: null });
    expect(gabon('+24')).toEqual({ status: 'partial', operator: null });
    expect(gabon('+241 7')).toEqual({ status: 'partial', operator: null });
    expect(gabon('+241 77')).toEqual({ status: 'partial', operator: 'Airtel Gabon' });
    expect(gabon('077 12')).toEqual({ status: 'partial', operator: 'Airtel Gabon' });
    expect(gabon('24177')).toEqual({ status: 'partial', operator: 'Airtel Gabon' });
    expect(gabon('+241 76')).toEqual({ status: 'refused' });
    expect(rwanda('+250 72')).toEqual({ status: 'partial', operator: 'Airtel Rwanda' });
    expect(rwanda('0790')).toEqual({ status: 'partial', operator: 'MTN Rwanda' });
    expect(rwanda('+250 71')).toEqual({ status: 'refused' });
  });

  it('follows the table: a range the admin adds is accepted, and the longest prefix names the operator', () => {
    const edited = [...table, { channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '76' },
      { channel: 'airtel_gabon', operator: 'Gabon Test', prefix: '745' }];
    expect(gabon('+241 76 12 34 56', edited)).toMatchObject({ status: 'valid', operator: 'Airtel Gabon' });
    expect(gabon('+241 74 51 23 45', edited)).toMatchObject({ status: 'valid', operator: 'Gabon Test' });
    expect(gabon('+241 74 12 34 56', edited)).toMatchObject({ status: 'valid', operator: 'Airtel Gabon' });
    expect(gabon('+241 77 12 34 56', [])).toEqual({ status: 'refused' });
  });
});

describe('acceptedOperators', () => {
  it('names the operators and their ranges in each language', () => {
    expect(acceptedOperators(table, 'airtel_gabon', 'en')).toEqual({ operators: 'Airtel Gabon', numbers: '+241 74… or 77…' });
    expect(acceptedOperators(table, 'airtel_gabon', 'fr')).toEqual({ operators: 'Airtel Gabon', numbers: '+241 74… ou 77…' });
    expect(acceptedOperators(table, 'mobile_rwanda', 'en'))
      .toEqual({ operators: 'Airtel Rwanda or MTN Rwanda', numbers: '+250 72…, 73…, 78…, or 79…' });
    expect(acceptedOperators(table, 'mobile_rwanda', 'fr'))
      .toEqual({ operators: 'Airtel Rwanda ou MTN Rwanda', numbers: '+250 72…, 73…, 78… ou 79…' });
  });
});

describe('mobile channels', () => {
  it('are the channels of kind mobile', () => {
    expect([...MOBILE_CHANNEL_IDS]).toEqual(CHANNEL_IDS.filter((id) => CHANNELS[id].kind === 'mobile'));
  });
});
