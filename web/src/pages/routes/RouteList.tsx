import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function RouteListPage() {
  return <PageHeader title="RouteList" />;
}
