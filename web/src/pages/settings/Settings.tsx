/**
 * Settings: one tab per area, the tab in the address (/settings/alerts, /settings/api-keys, …) so a tab
 * can be bookmarked and the back button works. OWNER and ADMIN change settings; other roles see what
 * they may read, without the controls.
 */
import { useEffect } from 'react';
import { useLocation, useParams } from 'wouter';
import { PageHeader, Tabs } from '../../components/ui';
import { AlertSettingsTab } from './AlertSettingsTab';
import { ApiKeysTab } from './ApiKeysTab';
import { IntegrationsTab } from './IntegrationsTab';
import { UsersTab } from './UsersTab';
import { WebhooksTab } from './WebhooksTab';
import './settings.css';

const TABS = [
  { id: 'alerts', label: 'Alerts & monitoring' },
  { id: 'api-keys', label: 'API keys' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'users', label: 'Users & invitations' },
] as const;

type TabId = (typeof TABS)[number]['id'];

function isTab(value: string | undefined): value is TabId {
  return TABS.some((t) => t.id === value);
}

export function SettingsPage() {
  const { tab } = useParams<{ tab?: string }>();
  const [, navigate] = useLocation();
  const current: TabId = isTab(tab) ? tab : 'alerts';

  useEffect(() => {
    if (tab !== undefined && !isTab(tab)) navigate('/settings/alerts', { replace: true });
  }, [tab, navigate]);

  const label = TABS.find((t) => t.id === current)!.label;
  return (
    <section className="settings">
      <PageHeader title="Settings" />
      <Tabs label="Settings sections" tabs={[...TABS]} current={current} onChange={(t) => navigate(`/settings/${t}`)} />
      <div role="tabpanel" aria-label={label}>
        {current === 'alerts' && <AlertSettingsTab />}
        {current === 'api-keys' && <ApiKeysTab />}
        {current === 'webhooks' && <WebhooksTab />}
        {current === 'integrations' && <IntegrationsTab />}
        {current === 'users' && <UsersTab />}
      </div>
    </section>
  );
}
