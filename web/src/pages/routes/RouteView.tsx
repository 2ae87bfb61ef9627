import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function RouteViewPage() {
  return <PageHeader title="RouteView" />;
}
