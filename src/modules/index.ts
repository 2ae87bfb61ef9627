import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.js';
import { adminRoutes } from './admin/admin.routes.js';
import { alertsRoutes } from './alerts/alerts.routes.js';
import { apiKeysRoutes } from './api-keys/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { driversRoutes } from './drivers/drivers.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { hosRoutes } from './hos/hos.routes.js';
import { invitationsRoutes } from './invitations/invitations.routes.js';
import { loadsRoutes } from './loads/loads.routes.js';
import { locationsRoutes } from './locations/locations.routes.js';
import { logsRoutes } from './logs/logs.routes.js';
import { unassignedRoutes } from './logs/unassigned.routes.js';
import { settingsRoutes } from './settings/settings.routes.js';
import { tenantsRoutes } from './tenants/tenants.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { restRoutes } from './rest/rest.routes.js';
import { routesRoutes } from './routes/routes.routes.js';
import { dispatchRoutes } from './dispatch/dispatch.routes.js';
import type { PlanningPorts } from './routes/planning-ports.js';
import { vehiclesRoutes } from './vehicles/vehicles.routes.js';
import { webhooksRoutes } from './webhooks/webhooks.routes.js';
import { integrationsRoutes } from './integrations/integrations.routes.js';
import { realtimeRoutes } from './realtime/realtime.routes.js';

export function registerModules(app: FastifyInstance, deps: Deps, ports: PlanningPorts): void {
  for (const register of [
    healthRoutes,
    tenantsRoutes,
    authRoutes,
    apiKeysRoutes,
    usersRoutes,
    invitationsRoutes,
    hosRoutes,
    vehiclesRoutes,
    locationsRoutes,
    restRoutes,
    settingsRoutes,
    adminRoutes,
    alertsRoutes,
    webhooksRoutes,
    integrationsRoutes,
    realtimeRoutes,
  ]) {
    register(app, deps);
  }
  driversRoutes(app, deps, ports);
  logsRoutes(app, deps, ports);
  unassignedRoutes(app, deps, ports);
  loadsRoutes(app, deps, ports);
  routesRoutes(app, deps, ports);
  dispatchRoutes(app, deps, ports);
}
