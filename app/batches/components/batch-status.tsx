import { Badge } from "@shopify/polaris";

/** A batch's status as the merchant reads it. */

type Tone = "info" | "success" | "critical" | "attention" | "warning" | undefined;

const STATUS: Record<string, { tone: Tone; label: string }> = {
  CREATING: { tone: "attention", label: "Creating" },
  OPEN: { tone: "info", label: "Open" },
  BOOKING: { tone: "attention", label: "Booking" },
  COMPLETED: { tone: "success", label: "Booked" },
  FAILED: { tone: "critical", label: "Failed" },
  CANCELLED: { tone: undefined, label: "Cancelled" },
};

export function BatchStatusBadge({ status }: { status: string }) {
  const shown = STATUS[status] ?? { tone: undefined, label: status.toLowerCase() };
  return <Badge tone={shown.tone}>{shown.label}</Badge>;
}

const SHIPMENT: Record<string, { tone: Tone; label: string }> = {
  NONE: { tone: undefined, label: "Not booked" },
  BOOKING: { tone: "attention", label: "Booking" },
  BOOKED: { tone: "success", label: "Booked" },
  FAILED: { tone: "critical", label: "Failed" },
};

export function BookingStatusBadge({ status }: { status: string }) {
  const shown = SHIPMENT[status] ?? { tone: undefined, label: status.toLowerCase() };
  return <Badge tone={shown.tone}>{shown.label}</Badge>;
}
