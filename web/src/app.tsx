/**
 * The page map. Who sees what: nobody signed in → the sign-in pages; a platform administrator → the
 * tenant administration; a tenant whose approval is pending → the pending screen; a DRIVER → the driver
 * view only; everyone else → the dispatcher dashboard. Pages are loaded on demand (small first load).
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { useSession } from './api/session';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { LoginPage } from './pages/auth/Login';

const page = <T extends Record<string, ComponentType<never>>>(load: () => Promise<T>, name: keyof T) =>
  lazy(async () => ({ default: (await load())[name] as ComponentType }));

const RegisterPage = page(() => import('./pages/auth/Register'), 'RegisterPage');
const PendingPage = page(() => import('./pages/auth/Pending'), 'PendingPage');
const AcceptInvitationPage = page(() => import('./pages/auth/AcceptInvitation'), 'AcceptInvitationPage');
const OverviewPage = page(() => import('./pages/Overview'), 'OverviewPage');
const RoutesPage = page(() => import('./pages/routes/RouteList'), 'RouteListPage');
const PlanRoutePage = page(() => import('./pages/routes/PlanRoute'), 'PlanRoutePage');
const RouteViewPage = page(() => import('./pages/routes/RouteView'), 'RouteViewPage');
const AlertsPage = page(() => import('./pages/alerts/Alerts'), 'AlertsPage');
const AlertAnalyticsPage = page(() => import('./pages/alerts/AlertAnalytics'), 'AlertAnalyticsPage');
const DriversPage = page(() => import('./pages/fleet/Drivers'), 'DriversPage');
const DriverDetailPage = page(() => import('./pages/fleet/DriverDetail'), 'DriverDetailPage');
const VehiclesPage = page(() => import('./pages/fleet/Vehicles'), 'VehiclesPage');
const VehicleDetailPage = page(() => import('./pages/fleet/VehicleDetail'), 'VehicleDetailPage');
const LoadsPage = page(() => import('./pages/fleet/Loads'), 'LoadsPage');
const LoadDetailPage = page(() => import('./pages/fleet/LoadDetail'), 'LoadDetailPage');
const LocationsPage = page(() => import('./pages/fleet/Locations'), 'LocationsPage');
const LocationDetailPage = page(() => import('./pages/fleet/LocationDetail'), 'LocationDetailPage');
const UnassignedDrivingPage = page(() => import('./pages/compliance/UnassignedDriving'), 'UnassignedDrivingPage');
const CompliancePage = page(() => import('./pages/compliance/Compliance'), 'CompliancePage');
const SettingsPage = page(() => import('./pages/settings/Settings'), 'SettingsPage');
const AdminTenantsPage = page(() => import('./pages/admin/Tenants'), 'AdminTenantsPage');
const DriverHomePage = page(() => import('./pages/driver/DriverHome'), 'DriverHomePage');

function Anonymous() {
  const [location] = useLocation();
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/register" component={RegisterPage} />
      <Route path="/accept-invitation" component={AcceptInvitationPage} />
      <Route>
        <Redirect to={`/login${location !== '/' && location !== '/login' ? `?next=${encodeURIComponent(location)}` : ''}`} />
      </Route>
    </Switch>
  );
}

function Dispatcher() {
  return (
    <Switch>
      <Route path="/" component={OverviewPage} />
      <Route path="/routes" component={RoutesPage} />
      <Route path="/routes/new" component={PlanRoutePage} />
      <Route path="/routes/:planId" component={RouteViewPage} />
      <Route path="/alerts" component={AlertsPage} />
      <Route path="/alerts/analytics" component={AlertAnalyticsPage} />
      <Route path="/drivers" component={DriversPage} />
      <Route path="/drivers/:driverId" component={DriverDetailPage} />
      <Route path="/vehicles" component={VehiclesPage} />
      <Route path="/vehicles/:vehicleId" component={VehicleDetailPage} />
      <Route path="/loads" component={LoadsPage} />
      <Route path="/loads/:loadId" component={LoadDetailPage} />
      <Route path="/locations" component={LocationsPage} />
      <Route path="/locations/:locationId" component={LocationDetailPage} />
      <Route path="/unassigned-driving" component={UnassignedDrivingPage} />
      <Route path="/compliance" component={CompliancePage} />
      <Route path="/settings/:tab?" component={SettingsPage} />
      <Route path="/login">
        <Redirect to="/" />
      </Route>
      <Route path="/register">
        <Redirect to="/" />
      </Route>
      <Route>
        <NotFound />
      </Route>
    </Switch>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <a href="/">Back to the fleet overview</a>.
      </p>
    </section>
  );
}

export function App() {
  const { state } = useSession();
  const [location] = useLocation();
  if (state.status === 'loading') return <Loading label="Starting…" />;
  return (
    <Suspense fallback={<Loading />}>
      {location === '/accept-invitation' && state.status === 'signed-in' ? (
        // Someone signed in opened an invitation link: the page offers to sign out first.
        <AcceptInvitationPage />
      ) : state.status === 'anonymous' ? (
        <Anonymous />
      ) : state.viewer.kind === 'admin' ? (
        <Layout variant="admin">
          <Switch>
            <Route path="/" component={AdminTenantsPage} />
            <Route>
              <Redirect to="/" />
            </Route>
          </Switch>
        </Layout>
      ) : state.viewer.me.tenantStatus !== 'ACTIVE' ? (
        <PendingPage />
      ) : state.viewer.me.role === 'DRIVER' ? (
        <Layout variant="driver">
          <Switch>
            <Route path="/" component={DriverHomePage} />
            <Route>
              <Redirect to="/" />
            </Route>
          </Switch>
        </Layout>
      ) : (
        <Layout variant="dispatcher">
          <Dispatcher />
        </Layout>
      )}
    </Suspense>
  );
}
