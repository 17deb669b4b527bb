// The console's Ant Design theme: a farmland green with text colours dark enough for WCAG AA contrast (axe checks it).
import type { ThemeConfig } from 'antd';

export const BRAND_GREEN = '#1b6e34';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND_GREEN,
    colorLink: BRAND_GREEN,
    colorInfo: '#0958d9',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    // Select placeholders are text (axe measures them): 0.6 reaches 4.5:1 on white; 0.5 did not.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
    // Danger buttons and error texts: Ant Design's #ff4d4f is 3.3:1 on white; this red is 5.9:1.
    colorError: '#c41d2b',
    borderRadius: 6,
  },
  components: {
    Layout: { siderBg: '#0f3d1e', headerBg: '#ffffff', headerPadding: '0 20px' },
    // Status tags (success, warning) write their text in colorSuccess / colorWarning: Ant Design's #52c41a and #faad14
    // are under 2.5:1 on their pale backgrounds; these are over 7:1 (the EUDR verdict tags, components/eudr).
    Tag: { colorSuccess: '#14532b', colorWarning: '#7a4100' },
    // 13 px items and a 16 px indent keep 'Custom Farm Analysis' on one line in the 200 px sidebar.
    Menu: {
      darkItemBg: '#0f3d1e',
      darkItemSelectedBg: '#1b6e34',
      darkItemColor: 'rgba(255, 255, 255, 0.85)',
      fontSize: 13,
      itemMarginInline: 6,
      iconMarginInlineEnd: 8,
    },
  },
};
