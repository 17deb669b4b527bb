// The frame shared by the provider and tenant areas: a sidebar that collapses between 200 px and 80 px with Logout at
// its bottom, and a header with a breadcrumb, a search box (header-search.tsx), a bell (activity log) and an avatar (profile).
// Below a tablet width (768 px, Ant Design's md) the sidebar is a drawer opened by a hamburger in the header, the
// header's search narrows and the page padding shrinks, so a 390 px phone never scrolls sideways.
import { Suspense, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import Avatar from 'antd/es/avatar';
import Breadcrumb from 'antd/es/breadcrumb';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Grid from 'antd/es/grid';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import Tooltip from 'antd/es/tooltip';
import { BellOutlined, LogoutOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { logout } from '../../lib/session';
import { useSession } from '../../lib/session-store';
import { PageLoader } from '../ui/page-loader';
import { HeaderSearch } from './header-search';
import { LogoMark } from './auth-layout';
import { paths } from '../../lib/paths';
import { t } from '../../i18n';
import { layoutText as m } from './layout.messages';
import './layouts.css';

export const SIDER_WIDTH = 200;
export const SIDER_COLLAPSED_WIDTH = 80;
const COLLAPSE_KEY = 'farmland.sider-collapsed';

export type NavItem = { key: string; label: string; icon: ReactNode };

type Props = {
  /** Area name in the breadcrumb: "Super Admin" or the tenant's name. */
  areaLabel: string;
  /** /super-admin or /admin. */
  basePath: string;
  items: NavItem[];
};

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSE_KEY) === '1';
  } catch {
    return false;
  }
}

export function ConsoleFrame({ areaLabel, basePath, items }: Props) {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  // md is false below 768 px; undefined before the first measure (then the desktop frame shows, as before).
  const phone = Grid.useBreakpoint().md === false;
  // The drawer is open on the page it was opened on: a page chosen in it closes it.
  const [drawerOpenOn, setDrawerOpenOn] = useState<string | null>(null);
  const drawerOpen = drawerOpenOn === location.pathname;
  const setDrawerOpen = (open: boolean) => setDrawerOpenOn(open ? location.pathname : null);

  const rest = location.pathname.slice(basePath.length).replace(/^\/+/, '');
  const [section = 'dashboard', ...deeper] = rest.split('/');
  const current = items.find((i) => i.key === section);

  const toggle = () => {
    setCollapsed((c) => {
      try {
        localStorage.setItem(COLLAPSE_KEY, c ? '0' : '1');
      } catch {
        // private mode: the choice just is not remembered
      }
      return !c;
    });
  };

  const signOut = async () => {
    await logout();
    void navigate(paths.login, { replace: true });
  };

  const initials = user ? `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase() : '';
  const breadcrumb = [
    { key: 'area', title: <Link to={`${basePath}/dashboard`}>{areaLabel}</Link> },
    { key: 'page', title: current ? current.label : t(m.notFound) },
    ...(current && deeper.length > 0 ? [{ key: 'detail', title: t(m.details) }] : []),
  ];

  const navigation = (c: boolean) => (
    <nav aria-label={t(m.mainNav)} className="console-nav">
      <Link to={`${basePath}/dashboard`} className="console-brand">
        <LogoMark size={28} />
        {!c && <span translate="no">{t(m.brand)}</span>}
        {c && (
          <span className="visually-hidden" translate="no">
            {t(m.brand)}
          </span>
        )}
      </Link>
      <Menu
        theme="dark"
        mode="inline"
        inlineIndent={16}
        selectedKeys={current ? [current.key] : []}
        className="console-menu"
        items={items.map((i) => ({ key: i.key, icon: i.icon, label: <Link to={`${basePath}/${i.key}`}>{i.label}</Link> }))}
      />
      <div className={c ? 'console-logout-row collapsed' : 'console-logout-row'}>
        <Tooltip title={c ? t(m.logout) : ''} placement="right">
          <Button
            type="text"
            block
            icon={<LogoutOutlined aria-hidden="true" />}
            onClick={() => void signOut()}
            aria-label={t(m.logout)}
            className={c ? 'console-logout collapsed' : 'console-logout'}
          >
            {c ? null : t(m.logout)}
          </Button>
        </Tooltip>
      </div>
    </nav>
  );

  return (
    <Layout className="console-frame">
      {phone ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={SIDER_WIDTH + 40}
          closable={false}
          rootClassName="console-nav-drawer"
          styles={{ body: { padding: 0, background: '#0f3d1e' } }}
          data-testid="sidebar"
        >
          {navigation(false)}
        </Drawer>
      ) : (
        <Layout.Sider
          width={SIDER_WIDTH}
          collapsedWidth={SIDER_COLLAPSED_WIDTH}
          collapsible
          collapsed={collapsed}
          trigger={null}
          data-testid="sidebar"
          className="console-sider"
        >
          {navigation(collapsed)}
        </Layout.Sider>
      )}
      <Layout className="console-main">
        <Layout.Header className={phone ? 'console-header phone' : 'console-header'}>
          {phone ? (
            <Button
              type="text"
              onClick={() => setDrawerOpen(true)}
              aria-label={t(m.openMenu)}
              aria-expanded={drawerOpen}
              icon={<MenuOutlined aria-hidden="true" />}
            />
          ) : (
            <Button
              type="text"
              onClick={toggle}
              aria-label={collapsed ? t(m.expandSidebar) : t(m.collapseSidebar)}
              aria-expanded={!collapsed}
              icon={collapsed ? <MenuUnfoldOutlined aria-hidden="true" /> : <MenuFoldOutlined aria-hidden="true" />}
            />
          )}
          <Breadcrumb items={phone ? breadcrumb.slice(1) : breadcrumb} className="console-breadcrumb" />
          <HeaderSearch basePath={basePath} narrow={phone} />
          <Link to={`${basePath}/activity-log`} title={t(m.activityLog)} className="console-bell">
            <BellOutlined aria-hidden="true" />
            <span className="visually-hidden">{t(m.activityLog)}</span>
          </Link>
          <Link to={`${basePath}/profile`} title={t(m.profile)}>
            <Avatar src={user?.image ?? undefined} className="console-avatar" alt="" aria-hidden="true">
              {initials}
            </Avatar>
            <span className="visually-hidden">{t(m.profile)}</span>
          </Link>
        </Layout.Header>
        {/* Layout.Content renders the page's <main> landmark. */}
        <Layout.Content className={phone ? 'console-content phone' : 'console-content'}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
