// The EU information system's geolocation checks added by issue 29 (docs/decisions/0074-eudr-geolocation-checks.md):
// their labels and explanations on analysis rows and plots, and the EUDR export's choice of where verdicts and
// warnings go (English; French in geolocation-checks.messages.fr.ts).
import { defineMessages } from '../../i18n';

export const geolocationChecksText = defineMessages('geolocationChecks', {
  hasHoles: 'Polygon with holes',
  hasHolesDetail: 'The EU information system refuses polygons with holes; split the plot into parts.',
  pointOver4ha: 'Point for a plot over 4 ha',
  pointOver4haDetail: 'The declared area is 4 ha or more; the EUDR asks for a polygon for such a plot.',
  outsideCountry: 'Outside its country',
  outsideCountryDetail: 'No point of the plot lies in the declared country or within 5 km of its border: another country, or latitude and longitude swapped?',
  areaMismatch: 'Area differs from the declared one',
  areaMismatchDetail: 'The declared area differs from the area of the boundary by more than 10 % (and more than 0.05 ha).',
  verdictsWhere: 'Verdicts and warnings',
  verdictsAsProperties: 'In the file, as extra properties',
  verdictsAsCompanion: 'In a companion CSV (the file keeps only the EU properties)',
});
