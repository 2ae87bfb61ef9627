export interface AlertSettings {
  hosApproachingThresholdHours: number;
  routeDeviationThresholdMiles: number;
  unplannedStopThresholdMinutes: number;
  dockDelayThresholdMinutes: number;
  enableWeatherAlerts: boolean;
  enableMechanicalAlerts: boolean;
}

export interface MonitoringSettings {
  monitoringIntervalSeconds: number;
  autoResolveDeviationAfterMinutes: number;
  hosWarningThresholdMinutes: number;
}

export function defaultAlertSettings(): AlertSettings {
  return {
    hosApproachingThresholdHours: 1,
    routeDeviationThresholdMiles: 5,
    unplannedStopThresholdMinutes: 30,
    dockDelayThresholdMinutes: 120,
    enableWeatherAlerts: true,
    enableMechanicalAlerts: true,
  };
}

export function defaultMonitoringSettings(intervalSeconds: number): MonitoringSettings {
  return { monitoringIntervalSeconds: intervalSeconds, autoResolveDeviationAfterMinutes: 15, hosWarningThresholdMinutes: 30 };
}
