// The tenant form's request: separators stripped from the price, YYYY-MM-DD dates, today's issued date, and
// enable_farm_sync only for SDK licenses.
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { PRICE_RE, stripSeparators, toTenantBody, type TenantFormValues } from './tenant-form';

const base: TenantFormValues = {
  name: ' Delta Farms ',
  email: 'ops@delta.example',
  phone_number: '+2348012345678',
  address: '1 Farm Road',
  country_id: 'c1',
  state_id: 's1',
  city: 'city-1',
  admin_first_name: 'Ada',
  admin_last_name: 'Obi',
  admin_email: 'ada@delta.example',
  admin_phone_number: '+2348098765432',
  license_type: 'SDK',
  expiry_date: dayjs('2027-11-24'),
  price: '1,250,000.50',
  enable_farm_sync: 'yes',
};

describe('toTenantBody', () => {
  it('strips separators, formats dates, issues today and trims', () => {
    const body = toTenantBody(base, dayjs('2026-11-24T15:00:00'));
    expect(body.name).toBe('Delta Farms');
    expect(body.license).toEqual({ type: 'SDK', issued_date: '2026-11-24', expiry_date: '2027-11-24', price: '1250000.50' });
    expect(body.enable_farm_sync).toBe(true);
    expect(body.admin).toEqual({ first_name: 'Ada', last_name: 'Obi', email: 'ada@delta.example', phone_number: '+2348098765432' });
    expect(body.country_id).toBe('c1');
    expect(body.state_id).toBe('s1');
  });

  it('never syncs farms for a Platform license', () => {
    expect(toTenantBody({ ...base, license_type: 'Platform', enable_farm_sync: 'yes' }).enable_farm_sync).toBe(false);
    expect(toTenantBody({ ...base, enable_farm_sync: 'no' }).enable_farm_sync).toBe(false);
  });

  it('leaves state_id out when none is chosen', () => {
    const { state_id: _omit, ...noState } = base;
    expect('state_id' in toTenantBody(noState)).toBe(false);
  });
});

describe('prices', () => {
  it('accepts grouped or plain amounts with up to 2 decimals, and refuses the rest', () => {
    for (const ok of ['220000', '220,000', '1,250,000.50', '0.5']) expect(PRICE_RE.test(ok)).toBe(true);
    for (const bad of ['', 'abc', '1,00', '12.345', '-5', '1,2345']) expect(PRICE_RE.test(bad)).toBe(false);
    expect(stripSeparators('1,250, 000')).toBe('1250000');
  });
});
