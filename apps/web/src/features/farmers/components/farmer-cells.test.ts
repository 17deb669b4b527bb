// The farmers' bulk table checks an edited cell in the browser with the contract's own rules (the API checks again).
import { describe, expect, it } from 'vitest';
import { farmCentre } from './farmer-drawer';
import { validateFarmerCell } from './farmers-screen';

describe('farmer cells', () => {
  it('checks farmer fields with the contract', () => {
    expect(validateFarmerCell('first_name', 'Ada')).toBeUndefined();
    expect(validateFarmerCell('first_name', '')).toBe('First name is required');
    expect(validateFarmerCell('email', 'not-an-email')).toBe('Enter a valid email address');
    expect(validateFarmerCell('email', '')).toBeUndefined();
    expect(validateFarmerCell('gender', 'female')).toBeUndefined();
    expect(validateFarmerCell('gender', 'Other')).toBe('Gender must be Male or Female');
    expect(validateFarmerCell('phone_number', 'call me')).toBe('Enter a valid phone number');
  });

  it('checks farm cells with the registry polygon rules', () => {
    expect(validateFarmerCell('farm_coordinates', '[[3.7712,7.6461],[3.7722,7.6461],[3.7722,7.6471],[3.7712,7.6471]]')).toBeUndefined();
    expect(validateFarmerCell('farm_coordinates', '[[3.78,7.65],[3.781,7.65]]')).toMatch(/3/);
    expect(validateFarmerCell('farm_coordinates', 'nonsense')).toBeTruthy();
    expect(validateFarmerCell('operational_area_id', 'area 1')).toBe('Use the id of one of your operational areas');
    expect(validateFarmerCell('operational_area_id', '')).toBeUndefined();
  });

  it("checks a point plot's cells with the capture's rules", () => {
    expect(validateFarmerCell('farm_point', '[3.7741,7.6483]')).toBeUndefined();
    expect(validateFarmerCell('farm_point', '')).toBeUndefined();
    expect(validateFarmerCell('farm_point', '[200,7]')).toMatch(/within ±180 and ±90/);
    expect(validateFarmerCell('farm_point', 'here')).toMatch(/\[longitude, latitude\]/);
    expect(validateFarmerCell('farm_declared_area_sqm', '15000')).toBeUndefined();
    expect(validateFarmerCell('farm_declared_area_sqm', '0')).toMatch(/above 0/);
    expect(validateFarmerCell('farm_declared_area_sqm', 'two')).toMatch(/number of square metres/);
  });

  it("centres the map on a farm's extent", () => {
    expect(
      farmCentre({
        coordinates: [
          [3, 7],
          [4, 7],
          [4, 8],
          [3, 8],
        ],
      }),
    ).toEqual([3.5, 7.5]);
    expect(farmCentre({ coordinates: [] })).toBeNull();
  });
});
