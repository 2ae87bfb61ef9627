import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function AlertAnalyticsPage() {
  return <PageHeader title="AlertAnalytics" />;
}
