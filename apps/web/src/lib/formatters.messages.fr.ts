// The units of the display formats, in French.
import { translate } from '../i18n';
import { formatText } from './formatters.messages';

export default translate(formatText, {
  sqm: '{value} m²',
  hectares: '{value} ha',
  duration: '{hours} h, {minutes} min, {seconds} s',
});
