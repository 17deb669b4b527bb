// The frame shared by the provider and tenant areas: a sidebar that collapses between 200 px and 80 px with Logout at
// its bottom, and a header with a breadcrumb, a search box (header-search.tsx), a bell (activity log) and an avatar (profile).
import { Suspense, useState, type ReactNode } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import Avatar from 'antd/es/avatar';
import Breadcrumb from 'antd/es/breadcrumb';
import Button from 'antd/es/button';
import Layout from 'antd/es/layout';
import Menu from 'antd/es/menu';
import Tooltip from 'antd/es/tooltip';
import { BellOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { logout } from '../../lib/session';
import { useSession } from '../../lib/session-store';
import { PageLoader } from '../ui/page-loader';
import { HeaderSearch } from './header-search';
import { LogoMark } from './auth-layout';

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
    navigate('/login', { replace: true });
  };

  const initials = user ? `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase() : '';
  const breadcrumb = [
    { key: 'area', title: <Link to={`${basePath}/dashboard`}>{areaLabel}</Link> },
    { key: 'page', title: current ? current.label : 'Not found' },
    ...(current && deeper.length > 0 ? [{ key: 'detail', title: 'Details' }] : []),
  ];

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        width={SIDER_WIDTH}
        collapsedWidth={SIDER_COLLAPSED_WIDTH}
        collapsible
        collapsed={collapsed}
        trigger={null}
        data-testid="sidebar"
        style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
      >
        <nav aria-label="Main" style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
          <Link to={`${basePath}/dashboard`} style={{ display: 'flex', alignItems: 'center', gap: 10, padding: '18px 24px', color: '#fff', fontWeight: 600, whiteSpace: 'nowrap' }}>
            <LogoMark size={28} />
            {!collapsed && <span>Farmland</span>}
            {collapsed && <span className="visually-hidden">Farmland</span>}
          </Link>
          <Menu
            theme="dark"
            mode="inline"
            inlineIndent={16}
            selectedKeys={current ? [current.key] : []}
            style={{ flex: 1, borderInlineEnd: 0 }}
            items={items.map((i) => ({ key: i.key, icon: i.icon, label: <Link to={`${basePath}/${i.key}`}>{i.label}</Link> }))}
          />
          <div style={{ padding: collapsed ? '12px 16px' : '12px 16px 20px' }}>
            <Tooltip title={collapsed ? 'Logout' : ''} placement="right">
              <Button
                type="text"
                block
                icon={<LogoutOutlined aria-hidden="true" />}
                onClick={() => void signOut()}
                aria-label="Logout"
                style={{ color: '#fff', justifyContent: collapsed ? 'center' : 'flex-start' }}
              >
                {collapsed ? null : 'Logout'}
              </Button>
            </Tooltip>
          </div>
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 16, borderBottom: '1px solid #e8ece8', position: 'sticky', top: 0, zIndex: 10 }}>
          <Button
            type="text"
            onClick={toggle}
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            aria-expanded={!collapsed}
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden="true" /> : <MenuFoldOutlined aria-hidden="true" />}
          />
          <Breadcrumb items={breadcrumb} style={{ flex: 1, minWidth: 0 }} />
          <HeaderSearch basePath={basePath} />
          <Link to={`${basePath}/activity-log`} title="Activity log" style={{ display: 'inline-flex', fontSize: 18, color: 'rgba(0,0,0,0.75)' }}>
            <BellOutlined aria-hidden="true" />
            <span className="visually-hidden">Activity log</span>
          </Link>
          <Link to={`${basePath}/profile`} title="Profile">
            <Avatar src={user?.image ?? undefined} style={{ background: '#1b6e34' }} alt="" aria-hidden="true">
              {initials}
            </Avatar>
            <span className="visually-hidden">Profile</span>
          </Link>
        </Layout.Header>
        {/* Layout.Content renders the page's <main> landmark. */}
        <Layout.Content style={{ padding: 24 }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
