-- CreateTable
CREATE TABLE "FlowTriggerWorkflow" (
    "shop" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "callbackAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowTriggerWorkflow_pkey" PRIMARY KEY ("shop","handle")
);

