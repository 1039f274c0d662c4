-- Flow's trigger lifecycle callbacks (issue 30, docs/decisions/047): per shop and trigger, whether a workflow uses it.
-- CreateTable
CREATE TABLE "FlowTriggerWorkflow" (
    "shop" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "callbackAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "handle")
);
