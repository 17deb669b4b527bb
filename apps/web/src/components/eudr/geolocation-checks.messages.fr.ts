// The geolocation checks of issue 29, in French.
import { translate } from '../../i18n';
import { geolocationChecksText } from './geolocation-checks.messages';

export default translate(geolocationChecksText, {
  hasHoles: 'Polygone avec des trous',
  hasHolesDetail: "Le système d'information de l'UE refuse les polygones avec des trous ; divisez la parcelle en parties.",
  pointOver4ha: 'Point pour une parcelle de plus de 4 ha',
  pointOver4haDetail: 'La surface déclarée est de 4 ha ou plus ; le RDUE demande un polygone pour une telle parcelle.',
  outsideCountry: 'Hors de son pays',
  outsideCountryDetail:
    "Aucun point de la parcelle n'est dans le pays déclaré ni à moins de 5 km de sa frontière : un autre pays, ou la latitude et la longitude inversées ?",
  areaMismatch: 'Surface différente de la surface déclarée',
  areaMismatchDetail: 'La surface déclarée diffère de celle du contour de plus de 10 % (et de plus de 0,05 ha).',
  verdictsWhere: 'Verdicts et avertissements',
  verdictsAsProperties: 'Dans le fichier, en propriétés supplémentaires',
  verdictsAsCompanion: "Dans un CSV d'accompagnement (le fichier ne garde que les propriétés de l'UE)",
});
