"""The batch-statistics lesson: batch norm's batch and running statistics, and layer norm's none."""
