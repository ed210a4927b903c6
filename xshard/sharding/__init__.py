"""The dialect-free core: grids, shardings, shard shapes, device groups, resharding."""
