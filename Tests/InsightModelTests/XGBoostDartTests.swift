import Testing
@testable import InsightModel

/// XGBoost's DART booster: a gbtree inside `gradient_booster.gbtree`, and `weight_drop`, a weight per tree that
/// prediction multiplies the tree's output by. The import folds the weights into the leaves.
@Suite struct XGBoostDartTests {
    typealias Source = ImporterRefusalTests

    /// The one-stump model of `ImporterRefusalTests` as DART would save it, with `weights` for `weight_drop`.
    static func dart(weights: String) -> [UInt8] {
        let gbtree = String(decoding: Source.xgboost(), as: UTF8.self)
        let wrapped = gbtree
            .replacingOccurrences(of: #""gradient_booster":{"model":"#, with: #""gradient_booster":{"name":"dart","weight_drop":\#(weights),"gbtree":{"model":"#)
            .replacingOccurrences(of: #""name":"gbtree"},"#, with: #""name":"gbtree"}},"#)
        return Array(wrapped.utf8)
    }

    @Test func leavesAreMultipliedByTheirTreesWeightInFloat32() throws {
        let plain = try XGBoostImporter.importModel(jsonBytes: Source.xgboost(), options: Source.options)
        let dart = try XGBoostImporter.importModel(jsonBytes: Self.dart(weights: "[0.35831574]"), options: Source.options)
        let weight: Float = 0.35831574
        #expect(dart.trees[0].leafValues == [0, Double(Float(-0.25) * weight), Double(Float(0.75) * weight)])
        #expect(dart.trees[0].thresholds == plain.trees[0].thresholds)
        #expect(dart.baseMargin == plain.baseMargin)
        #expect(dart.metadata.training.parameters["booster"] == "dart")
        #expect(plain.metadata.training.parameters["booster"] == nil)
    }

    @Test func refusesMissingMiscountedAndNonFiniteWeights() {
        let refusal = { (bytes: [UInt8]) in Source().xgboostRefusal(bytes) }
        let model = String(decoding: Self.dart(weights: "[1]"), as: UTF8.self)
        #expect(refusal(Array(model.replacingOccurrences(of: #""weight_drop":[1],"#, with: "").utf8))
            == .malformed("dart booster without 'weight_drop'"))
        #expect(refusal(Self.dart(weights: "[1,1]")) == .malformed("weight_drop lists 2 weights for 1 trees"))
        #expect(refusal(Self.dart(weights: "[]")) == .malformed("weight_drop lists 0 weights for 1 trees"))
        #expect(refusal(Self.dart(weights: #"["1"]"#)) == .malformed("weight_drop holds a value that is not a finite number"))
        #expect(refusal(Self.dart(weights: "[1e39]")) == .malformed("weight_drop holds a value that is not a finite number"))
        #expect(refusal(Array(model.replacingOccurrences(of: #""name":"dart""#, with: #""name":"gblinear""#).utf8))
            == .unsupportedBooster("gblinear"))
    }

    /// Trained by xgboost 3.2.0 (`booster="dart", rate_drop=0.5, skip_drop=0, max_depth=2, eta=0.4`, 4 rounds, 3
    /// features with 10% missing); the margins are `Booster.predict(output_margin=True)`'s float32 bit patterns.
    static let trained = #"""
        {"learner":{"attributes":{},"feature_names":[],"feature_types":[],"gradient_booster":{"gbtree":{"model":{"cats":{"enc":[],
        "feature_segments":[],"sorted_idx":[]},"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"4"},
        "iteration_indptr":[0,1,2,3,4],"tree_info":[0,0,0,0],"trees":[{"base_weights":[2.8333272e-08,-1.3222414,
        0.8887213,-0.72752637,-0.070385024,-0.35407397,0.555039],"categories":[],"categories_nodes":[],"categories_segments":[],
        "categories_sizes":[],"default_left":[0,1,0,0,0,0,0],"id":0,"left_children":[1,3,5,-1,-1,-1,-1],"loss_changes":[119.83418,
        23.012558,55.198856,0.0,0.0,0.0,0.0],"parents":[2147483647,0,0,1,1,2,2],"right_children":[2,4,6,-1,-1,
        -1,-1],"split_conditions":[-0.08638484,0.4819454,-0.6331876,-0.72752637,-0.070385024,-0.35407397,0.555039],
        "split_indices":[0,1,1,0,0,0,0],"split_type":[0,0,0,0,0,0,0],"sum_hessian":[99.9775,39.991,59.9865,27.493813,
        12.497188,12.997075,46.989426],"tree_param":{"num_deleted":"0","num_feature":"3","num_nodes":"7","size_leaf_vector":"1"}},
        {"base_weights":[-0.0065822974,-0.7952206,0.66931474,-0.4918089,0.00036412288,-0.14253847,0.41567966],
        "categories":[],"categories_nodes":[],"categories_segments":[],"categories_sizes":[],"default_left":[0,
        1,0,0,0,0,0],"id":1,"left_children":[1,3,5,-1,-1,-1,-1],"loss_changes":[50.512714,15.121441,19.73164,
        0.0,0.0,0.0,0.0],"parents":[2147483647,0,0,1,1,2,2],"right_children":[2,4,6,-1,-1,-1,-1],"split_conditions":[0.13257653,
        0.30840802,-0.45811826,-0.4918089,0.00036412288,-0.14253847,0.41567966],"split_indices":[0,1,1,0,0,0,
        0],"split_type":[0,0,0,0,0,0,0],"sum_hessian":[92.765236,42.730564,50.034668,27.295876,15.4346895,13.271213,
        36.763454],"tree_param":{"num_deleted":"0","num_feature":"3","num_nodes":"7","size_leaf_vector":"1"}},
        {"base_weights":[2.8333272e-08,-1.3222414,0.8887213,-0.72752637,-0.070385024,-0.35407397,0.555039],"categories":[],
        "categories_nodes":[],"categories_segments":[],"categories_sizes":[],"default_left":[0,1,0,0,0,0,0],"id":2,
        "left_children":[1,3,5,-1,-1,-1,-1],"loss_changes":[119.83418,23.012558,55.198856,0.0,0.0,0.0,0.0],"parents":[2147483647,
        0,0,1,1,2,2],"right_children":[2,4,6,-1,-1,-1,-1],"split_conditions":[-0.08638484,0.4819454,-0.6331876,
        -0.72752637,-0.070385024,-0.35407397,0.555039],"split_indices":[0,1,1,0,0,0,0],"split_type":[0,0,0,0,
        0,0,0],"sum_hessian":[99.9775,39.991,59.9865,27.493813,12.497188,12.997075,46.989426],"tree_param":{"num_deleted":"0",
        "num_feature":"3","num_nodes":"7","size_leaf_vector":"1"}},{"base_weights":[2.8333272e-08,-1.3222414,
        0.8887213,-0.72752637,-0.070385024,-0.35407397,0.555039],"categories":[],"categories_nodes":[],"categories_segments":[],
        "categories_sizes":[],"default_left":[0,1,0,0,0,0,0],"id":3,"left_children":[1,3,5,-1,-1,-1,-1],"loss_changes":[119.83418,
        23.012558,55.198856,0.0,0.0,0.0,0.0],"parents":[2147483647,0,0,1,1,2,2],"right_children":[2,4,6,-1,-1,
        -1,-1],"split_conditions":[-0.08638484,0.4819454,-0.6331876,-0.72752637,-0.070385024,-0.35407397,0.555039],
        "split_indices":[0,1,1,0,0,0,0],"split_type":[0,0,0,0,0,0,0],"sum_hessian":[99.9775,39.991,59.9865,27.493813,
        12.497188,12.997075,46.989426],"tree_param":{"num_deleted":"0","num_feature":"3","num_nodes":"7","size_leaf_vector":"1"}}]},
        "name":"gbtree"},"name":"dart","weight_drop":[0.73529404,0.73529404,0.36764702,0.29411763]},"learner_model_param":{"base_score":"[5.075E-1]",
        "boost_from_average":"1","num_class":"0","num_feature":"3","num_target":"1"},"objective":{"name":"binary:logistic",
        "reg_loss_param":{"scale_pos_weight":"1"}}},"version":[3,2,0]}
        """#

    static let rows: [([Double?], UInt32)] = [
        ([nil, nil, nil], 0x3f8e3794),
        ([-0.5677695870399475, -0.4526492953300476, -0.21559716761112213], 0xbfac8be2),
        ([-2.019986152648926, -0.2319323718547821, -0.8652130961418152], 0xbfac8be2),
        ([3.3229994773864746, 0.22578661143779755, -0.3526307940483093], 0x3f8e3794),
        ([-0.28128743171691895, -0.6680463552474976, -1.0551505088806152], 0xbfac8be2),
        ([-0.39080098271369934, 0.4819453954696655, -0.23855361342430115], 0xbd8b641d),
        ([nil, nil, 0.02425956539809704], 0x3f8e3794),
        ([1.5458208322525024, 0.545105516910553, nil], 0x3f8e3794),
        ([-0.18283897638320923, 0.5405251383781433, 1.935088038444519], 0xbd8b641d),
        ([-0.2696203291416168, -0.24355867505073547, 1.0023136138916016], 0xbfac8be2),
        ([-0.8864599466323853, -0.2917202413082123, 0.8825389742851257], 0xbfac8be2),
        ([0.5803500413894653, 0.09151670336723328, 0.6701043844223022], 0x3f8e3794),
    ]

    @Test func scoresAsXGBoostPredictsBitForBit() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Array(Self.trained.utf8), options: Source.options)
        try ModelValidator.validate(document)
        let model = try CompiledModel(document: document)
        for (values, expected) in Self.rows {
            let row = values.map { $0 ?? .nan }
            #expect(Float(model.margin(for: row)).bitPattern == expected, "\(values)")
            #expect(Float(ReferenceWalk(document: document).margin(for: row)).bitPattern == expected, "\(values)")
        }
    }
}
