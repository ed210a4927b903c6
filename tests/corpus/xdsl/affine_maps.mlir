#map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 2, d0 floordiv 4, d1 mod 3, d0 ceildiv 2)>
#set = affine_set<(d0)[s0] : (d0 - 1 >= 0, s0 - d0 - 1 >= 0, d0 mod 2 == 0)>
module attributes {test.map = #map, test.set = #set, test.empty = affine_map<() -> ()>, test.const = affine_map<(d0) -> (0, 3 * d0 - 1)>} {
}
